"""Charts drawn on the server as SVG (no script, no styles: presentation attributes only,
so the page's Content-Security-Policy stays as strict as elsewhere)."""

from __future__ import annotations

import datetime
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 640, 220
LEFT, BOTTOM, TOP, RIGHT = 44, 28, 14, 10


def rain_chart(
    *,
    title: str,
    days: list[datetime.date],
    inches: list[float],
    lines: list[tuple[float, str]],
) -> SafeString:
    """Daily rain as bars, with each rule's threshold (inches, label) as a dashed line."""
    top = max([*inches, *(v for v, _ in lines), 0.1]) * 1.15
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(days), 1)

    def y(value: float) -> float:
        return TOP + plot_h - value / top * plot_h

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="t-{id(days)}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="t-{id(days)}">{escape(title)}</title>',
        f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" '
        'stroke="#565c65"/>',
    ]
    for tick in _ticks(top):
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#1b1b1b">{tick:g} in</text>'
        )
    for i, (day, amount) in enumerate(zip(days, inches, strict=True)):
        if amount <= 0:
            continue
        x = LEFT + i * step + step * 0.15
        height = y(0) - y(amount)
        parts.append(
            f'<rect x="{x:.1f}" y="{y(amount):.1f}" width="{step * 0.7:.1f}" '
            f'height="{height:.1f}" fill="#005ea2"><title>{day.isoformat()}: '
            f"{amount:.2f} in</title></rect>"
        )
    for i, day in enumerate(days):
        if i % 7 == 0 or i == len(days) - 1:
            parts.append(
                f'<text x="{LEFT + i * step + step / 2:.1f}" y="{HEIGHT - 8}" font-size="11" '
                f'text-anchor="middle" fill="#1b1b1b">{day.strftime("%b %-d")}</text>'
            )
    for value, label in lines:
        parts.append(
            f'<line x1="{LEFT}" y1="{y(value):.1f}" x2="{WIDTH - RIGHT}" y2="{y(value):.1f}" '
            'stroke="#b50909" stroke-dasharray="6 4" stroke-width="2"/>'
            f'<text x="{WIDTH - RIGHT - 4}" y="{y(value) - 5:.1f}" font-size="11" '
            f'text-anchor="end" fill="#b50909">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def share_chart(*, title: str, bars: list[tuple[str, int, int]]) -> SafeString:
    """Share met on time per period: (label, met on time, owed)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(bars), 1)

    def y(share: float) -> float:
        return TOP + plot_h - share * plot_h

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="t-{id(bars)}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="t-{id(bars)}">{escape(title)}</title>',
    ]
    for tick in (0, 0.5, 1):
        parts.append(
            f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{y(tick):.1f}" '
            'stroke="#dfe1e2"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#1b1b1b">{int(tick * 100)}%</text>'
        )
    for i, (label, met, owed) in enumerate(bars):
        x = LEFT + i * step + step * 0.2
        if owed:
            share = met / owed
            parts.append(
                f'<rect x="{x:.1f}" y="{y(share):.1f}" width="{step * 0.6:.1f}" '
                f'height="{y(0) - y(share):.1f}" fill="#00a91c"><title>{escape(label)}: '
                f"{met} of {owed} met on time</title></rect>"
            )
        parts.append(
            f'<text x="{LEFT + i * step + step / 2:.1f}" y="{HEIGHT - 8}" font-size="11" '
            f'text-anchor="middle" fill="#1b1b1b">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def _ticks(top: float) -> list[float]:
    step = 0.25 if top <= 1.5 else 0.5 if top <= 3 else 1.0
    ticks, value = [], 0.0
    while value <= top:
        ticks.append(round(value, 2))
        value += step
    return ticks
