"""The soak's figures against games played, as a PNG drawn with Pillow (already a dependency of
the app, through qrcode[pil]): one panel each for the process's memory (RSS), the objects Python
tracks, Kivy's cached textures with the widgets on the screens, and open files with threads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 900, 760
PANELS = (
    ("RSS (MB)", (("rss_kb", 1 / 1024, (200, 60, 60)),)),
    ("gc-tracked objects (thousands)", (("gc_objects", 1 / 1000, (60, 90, 200)),)),
    ("textures cached, widgets on the screens", (("textures", 1, (40, 150, 80)), ("widgets", 1, (150, 100, 30)))),
    ("open files, threads", (("fds", 1, (120, 60, 160)), ("threads", 1, (40, 40, 40)))),
)


def draw(rows: list[dict[str, Any]], out: Path) -> None:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    games = [r["games"] for r in rows]
    top, height, left, right = 30, (HEIGHT - 60) // len(PANELS), 70, WIDTH - 20
    step = games[1] - games[0] if len(games) > 1 else 0
    pen.text((left, 8), f"one app process, {games[-1]} games: the figures every {step} games", fill="black")
    for n, (title, series) in enumerate(PANELS):
        y0, y1 = top + n * height + 18, top + (n + 1) * height - 18
        values = [r[key] * scale for key, scale, _ in series for r in rows]
        high = max(values) * 1.1 or 1.0
        pen.rectangle((left, y0, right, y1), outline=(160, 160, 160))
        pen.text((left, y0 - 14), title, fill="black")
        for tick in (0.0, high / 2, high):
            y = y1 - (y1 - y0) * tick / high
            pen.text((4, y - 6), f"{tick:,.0f}", fill=(90, 90, 90))
        span = max(games[-1] - games[0], 1)
        for key, scale, colour in series:
            points = [
                (left + (right - left) * (r["games"] - games[0]) / span, y1 - (y1 - y0) * r[key] * scale / high)
                for r in rows
            ]
            pen.line(points, fill=colour, width=2)
            for x, y in points:
                pen.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
            pen.text((points[-1][0] - 60, points[-1][1] - 14), key, fill=colour)
    pen.text((left, HEIGHT - 20), f"games played: {games[0]} … {games[-1]}", fill="black")
    image.save(out)
