"""Board data of Scotland Yard (a package only so that its CSV files ship as package data)."""
