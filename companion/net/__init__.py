"""The phone side: an aiohttp server on the app's event loop, one page and one web socket per seat."""
