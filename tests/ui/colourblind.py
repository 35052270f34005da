"""What a colour-blind player sees: a dichromacy simulation of colours and whole screenshots.

The model is Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of
Color Vision Deficiency", IEEE Transactions on Visualization and Computer Graphics 15(6), with its
published matrices for severity 1.0 (protanopia: no working L cones, deuteranopia: no working M
cones). The paper applies them to linear RGB: each sRGB value is linearised (IEC 61966-2-1), the
matrix applied, the result clipped to [0, 1] and encoded back to sRGB. Screenshots are read and
written with Pillow; each distinct colour of a screenshot is simulated once (plain Python, no numpy).

Colour differences are CIE 1976 ΔE*ab in CIELAB (D65 white), the measure the threshold of
``tests/ui/test_colourblind.py`` is given in.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

RGB = tuple[float, float, float]  # 0..1 sRGB
Matrix = tuple[RGB, RGB, RGB]

# Machado et al. 2009, table of the supplementary material, severity 1.0 (rows: R', G', B')
SIMULATIONS: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: RGB, kind: str) -> RGB:
    """``colour`` (sRGB, 0..1) as a person with ``kind`` ("protanopia", "deuteranopia") sees it."""
    lin = [_linear(c) for c in colour]
    m = SIMULATIONS[kind]
    r, g, b = (_encoded(sum(row[i] * lin[i] for i in range(3))) for row in m)
    return r, g, b


def lab(colour: RGB) -> RGB:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: RGB, b: RGB) -> float:
    """CIE 1976 ΔE*ab between two sRGB colours."""
    return math.dist(lab(a), lab(b))


def simulate_image(source: Path, target: Path, kind: str) -> None:
    """A screenshot as a person with ``kind`` sees it, saved as PNG."""
    image = Image.open(source).convert("RGB")
    raw = image.tobytes()
    table: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    for pixel in set(zip(raw[0::3], raw[1::3], raw[2::3], strict=True)):
        r, g, b = simulate((pixel[0] / 255, pixel[1] / 255, pixel[2] / 255), kind)
        table[pixel] = (round(r * 255), round(g * 255), round(b * 255))
    shown = bytes(v for pixel in zip(raw[0::3], raw[1::3], raw[2::3], strict=True) for v in table[pixel])
    out = Image.frombytes("RGB", image.size, shown)
    target.parent.mkdir(parents=True, exist_ok=True)
    out.save(target, optimize=True)
