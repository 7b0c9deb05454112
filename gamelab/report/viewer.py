"""A game's story drawn: every step's picture as inline SVG, one self-contained page.

:func:`page` turns a :class:`gamelab.sim.story.Story` (a seeded game or a
replayed playtest record) into an HTML page that works from a file, without a
server: every step's scene (the game's :class:`~gamelab.core.scenes.View`)
drawn here as SVG or a small table, previous / next / play buttons, a step
slider and the arrow keys in plain JavaScript, the steps in words, and the
steps where a record's hand ledger and the rules disagree marked.  This module
draws and computes nothing about the game: the story holds the states, the
view says what they show.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from typing import Any

from gamelab.core.scenes import SEAT_COLOURS, Bars, Dice, Facts, Grid, Part, Ring, Track

#: the largest page ``page`` writes (bytes): a longer game is cut to its first steps, and says so
MAX_BYTES = 2_000_000


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _svg(width: float, height: float, body: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{esc(label)}">{body}</svg>'
    )


def _text(x: float, y: float, text, size: int = 12, anchor: str = "middle", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{esc(text)}</text>'


def track_board(part: Track, cols: int) -> str:
    """The squares and their numbers: what every step of a game shares, drawn once per page."""
    cell, gap = 52, 4
    out = []
    for i, sq in enumerate(part.squares):
        x, y = 4 + (i % cols) * (cell + gap), 4 + (i // cols) * (cell + gap)
        fill = part.palette.get(sq.kind, "#eeeeee")
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="4" fill="{fill}" stroke="#999"/>')
        out.append(
            _text(x + 3, y + 11, sq.label, 9, "start", ' fill="#777"' if sq.kind != "finish" else ' fill="#fff"')
        )
    return "".join(out)


def draw_track(part: Track, defs: dict[str, str] | None = None) -> str:
    """Squares in rows of ``per_row``, coloured by kind, marks under the number, tokens as seat-coloured discs.
    With ``defs`` (the page's shared drawings, id -> SVG), the board is drawn there once and used by id."""
    cell, gap, n = 52, 4, len(part.squares)
    cols = max(1, min(part.per_row, n))
    rows = math.ceil(n / cols)
    width, height = cols * (cell + gap) + 8, rows * (cell + gap) + 8
    board = track_board(part, cols)
    if defs is None:
        out = [board]
    else:
        key = defs.setdefault(board, f"board{len(defs)}")
        out = [f'<use href="#{key}"/>']
    for i, sq in enumerate(part.squares):
        x, y = 4 + (i % cols) * (cell + gap), 4 + (i // cols) * (cell + gap)
        for k, mark in enumerate(sq.marks[:2]):
            out.append(_text(x + cell / 2, y + cell - 4 - 10 * k, mark, 8, "middle", ' fill="#000"'))
    by_square: dict[int, list] = {}
    for tok in part.tokens:
        by_square.setdefault(tok.square, []).append(tok)
    for square, toks in by_square.items():
        x0, y0 = 4 + (square % cols) * (cell + gap), 4 + (square // cols) * (cell + gap)
        for k, tok in enumerate(toks[:6]):
            cx, cy = x0 + 12 + (k % 3) * 14, y0 + 22 + (k // 3) * 14
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="7" fill="{colour(tok.seat)}" stroke="#fff">'
                f"<title>{esc(tok.label)}</title></circle>"
            )
            out.append(_text(cx, cy + 3.5, tok.label[:2], 9, "middle", ' fill="#fff" font-weight="bold"'))
    legend = "".join(
        f'<span class="key"><i style="background:{c}"></i>{esc(k)}</span>' for k, c in part.palette.items()
    )
    picture = _svg(width, height, "".join(out), part.title)
    return f"<figure><figcaption>{esc(part.title)}</figcaption>{picture}<div class='legend'>{legend}</div></figure>"


def draw_ring(part: Ring) -> str:
    """Seats around a circle, each with its value, badge, lines and markers; arrows between seats."""
    n = len(part.seats)
    width, height, r_seat = 560, 440, 30
    cx, cy, radius = width / 2, 200, 150
    spots = [
        (cx + radius * math.sin(2 * math.pi * i / n), cy - radius * math.cos(2 * math.pi * i / n)) for i in range(n)
    ]
    out = [
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#555"/></marker></defs>'
    ]
    for a in part.arrows:
        (x1, y1), (x2, y2) = spots[a.src], spots[a.dst]
        d = math.hypot(x2 - x1, y2 - y1) or 1
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        sx, sy, ex, ey = x1 + ux * (r_seat + 3), y1 + uy * (r_seat + 3), x2 - ux * (r_seat + 3), y2 - uy * (r_seat + 3)
        if a.mutual:
            out.append(
                f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="#2a9d3a" stroke-width="6" '
                f'stroke-linecap="round"><title>team</title></line>'
            )
        else:
            ox, oy = -uy * 5, ux * 5  # a one-way rope beside a reverse one, not on it
            out.append(
                f'<line x1="{sx + ox:.1f}" y1="{sy + oy:.1f}" x2="{ex + ox:.1f}" y2="{ey + oy:.1f}" stroke="#555" '
                f'stroke-width="2" marker-end="url(#head)"><title>rope</title></line>'
            )
    for i, (seat, (x, y)) in enumerate(zip(part.seats, spots, strict=True)):
        ring = 5 if seat.active else 2
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r_seat}" fill="#fff" stroke="{colour(i)}" stroke-width="{ring}"/>'
        )
        out.append(_text(x, y + 8, seat.value, 22, "middle", ' font-weight="bold"'))
        below = y + r_seat + 14
        out.append(_text(x, below, seat.name, 12, "middle", f' fill="{colour(i)}" font-weight="bold"'))
        lines = ([seat.badge] if seat.badge else []) + list(seat.lines)
        for k, line in enumerate(lines[:3]):
            out.append(_text(x, below + 13 * (k + 1), line, 11))
        for k in range(min(seat.markers, 8)):
            out.append(f'<circle cx="{x - r_seat + 4 + 8 * k:.1f}" cy="{y - r_seat - 6:.1f}" r="3.5" fill="#000"/>')
    for k, line in enumerate(part.centre[:4]):
        out.append(_text(cx, cy - 8 * len(part.centre[:4]) + 16 * k + 12, line, 13, "middle", ' fill="#333"'))
    return f"<figure><figcaption>{esc(part.title)}</figcaption>{_svg(width, height, ''.join(out), part.title)}</figure>"


_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
}


def draw_dice(part: Dice) -> str:
    """Each face as pips (1-6) or its number, red when the roll lost something."""
    size, gap = 64, 14
    width = max(1, len(part.faces)) * (size + gap) + 240
    out = []
    stroke = "#c0392b" if part.bad else "#333"
    for k, face in enumerate(part.faces):
        x, y = 6 + k * (size + gap), 6
        out.append(
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="10" fill="#fff" stroke="{stroke}" '
            'stroke-width="3"/>'
        )
        if face in _PIPS:
            for r, c in _PIPS[face]:
                out.append(f'<circle cx="{x + 14 + 18 * c}" cy="{y + 14 + 18 * r}" r="6" fill="{stroke}"/>')
        else:
            out.append(_text(x + size / 2, y + size / 2 + 8, face, 24))
    if not part.faces:
        out.append(_text(6, 44, "no roll", 14, "start", ' fill="#777"'))
    x_note = 6 + max(1, len(part.faces)) * (size + gap)
    out.append(_text(x_note, 44, part.note, 15, "start", f' fill="{stroke}"'))
    return (
        f"<figure><figcaption>{esc(part.title)}</figcaption>{_svg(width, size + 12, ''.join(out), part.title)}</figure>"
    )


def draw_bars(part: Bars) -> str:
    """One horizontal bar per label, a lighter extra on top, a dashed target line."""
    n = len(part.labels)
    label_w, bar_w, row = 170, 330, 24
    extra = list(part.extra) + [0.0] * (n - len(part.extra))
    top = max([part.target or 0] + [v + e for v, e in zip(part.values, extra, strict=True)] + [1])
    width, height = label_w + bar_w + 70, n * row + 10
    out = []
    for i, (label, value) in enumerate(zip(part.labels, part.values, strict=True)):
        y = 5 + i * row
        w, we = bar_w * value / top, bar_w * extra[i] / top
        out.append(_text(label_w - 6, y + 15, label, 12, "end"))
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row - 8}" fill="{colour(i)}"/>')
        if we > 0:
            out.append(
                f'<rect x="{label_w + w:.1f}" y="{y + 3}" width="{we:.1f}" height="{row - 8}" fill="{colour(i)}" '
                'fill-opacity="0.35"/>'
            )
        shown = f"{value:g}" + (f" +{extra[i]:g}" if extra[i] else "")
        out.append(_text(label_w + w + we + 5, y + 15, shown, 12, "start"))
    if part.target:
        x = label_w + bar_w * part.target / top
        out.append(
            f'<line x1="{x:.1f}" y1="2" x2="{x:.1f}" y2="{height - 2}" stroke="#333" stroke-dasharray="4 3">'
            f"<title>target {part.target:g}</title></line>"
        )
    return f"<figure><figcaption>{esc(part.title)}</figcaption>{_svg(width, height, ''.join(out), part.title)}</figure>"


def draw_facts(part: Facts) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in part.rows)
    return f"<figure><figcaption>{esc(part.title)}</figcaption><table class='facts'>{rows}</table></figure>"


def draw_grid(part: Grid) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in part.columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in part.rows)
    return (
        f"<figure><figcaption>{esc(part.title)}</figcaption><table class='grid'><tr>{head}</tr>{body}</table></figure>"
    )


DRAW: dict[type, Callable[[Any], str]] = {
    Track: draw_track,
    Ring: draw_ring,
    Dice: draw_dice,
    Bars: draw_bars,
    Facts: draw_facts,
    Grid: draw_grid,
}


def draw_part(part: Part, defs: dict[str, str] | None = None) -> str:
    drawn = draw_track(part, defs) if isinstance(part, Track) else DRAW[type(part)](part)
    return f'<div class="opt opt-{esc(part.optional)}">{drawn}</div>' if part.optional else drawn


def scene_html(scene: Sequence[Part], defs: dict[str, str] | None = None) -> str:
    """A scene's parts drawn; ``defs`` collects what the steps share (``frames``), None draws all inline."""
    return "".join(draw_part(p, defs) for p in scene)


def shared_defs(defs: dict[str, str]) -> str:
    """The drawings the steps share (a track's board), once, for ``<use href>``."""
    if not defs:
        return ""
    body = "".join(f'<g id="{key}">{board}</g>' for board, key in defs.items())
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>{body}</defs></svg>'


def step_block(story, k: int, defs: dict[str, str], optional: list[str]) -> str:
    """Step ``k``'s block: its words, its marks and its pictures (the names of optional parts it
    draws added to ``optional``, the drawings it shares to ``defs``)."""
    step = story.steps[k]
    scene = story.view.scene(story.params, step.state, 0, story.names, step.events)
    for part in scene:
        if part.optional and part.optional not in optional:
            optional.append(part.optional)
    marks = "".join(f'<p class="mark">⚠ {esc(m)}</p>' for m in step.marks)
    return (
        f'<div class="frame{" marked" if step.marks else ""}" data-step="{k}"{"" if k == 0 else " hidden"}>'
        f'<p class="words"><b>Step {k}</b>: {esc(step.words)}</p>{marks}{scene_html(scene, defs)}</div>'
    )


def frames(story, defs: dict[str, str]) -> tuple[list[str], list[str], int]:
    """Every step's block (words, marks, pictures), the optional parts' names, and the steps left out
    to keep the page under :data:`MAX_BYTES`; ``defs`` collects the drawings the steps share."""
    out: list[str] = []
    optional: list[str] = []
    size = 0
    for k in range(len(story.steps)):
        block = step_block(story, k, defs, optional)
        size += len(block.encode())
        if size > MAX_BYTES - 60_000 and k > 0:
            return out, optional, len(story.steps) - k
        out.append(block)
    return out, optional, 0


STYLE = """
body{font-family:system-ui,sans-serif;margin:1.2em;max-width:1100px;color:#222}
h1{font-size:1.3em}
.controls{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd;z-index:2}
.controls button{font-size:1em;margin-right:.3em} #slider{width:45%;vertical-align:middle}
.words{font-size:1.05em;margin:.5em 0}
.mark{background:#fdecea;border-left:4px solid #c0392b;padding:.3em .6em;margin:.3em 0}
figure{margin:.6em 0} figcaption{font-weight:600;font-size:.9em;color:#444;margin-bottom:.2em}
table.facts th{text-align:left;padding-right:1em;font-weight:500;color:#555}
table{border-collapse:collapse;font-size:.9em}
table.grid td,table.grid th{border:1px solid #ddd;padding:2px 6px} .legend{font-size:.8em}
.key{margin-right:.8em}
.key i{display:inline-block;width:.9em;height:.9em;margin-right:.25em;vertical-align:-.1em;border:1px solid #999}
.opt{display:none} .log li{cursor:pointer} .log li.marked{color:#c0392b} .log{font-size:.9em}
"""

SCRIPT = """
(function(){
  const frames = Array.from(document.querySelectorAll('.frame'));
  const slider = document.getElementById('slider'), counter = document.getElementById('counter');
  const play = document.getElementById('play');
  let k = 0, timer = null;
  function show(i){
    k = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function(f, j){ f.hidden = j !== k; });
    slider.value = k; counter.textContent = 'step ' + k + ' of ' + (frames.length - 1);
  }
  function stop(){ if (timer) { clearInterval(timer); timer = null; } play.textContent = '\\u25B6 play'; }
  document.getElementById('prev').onclick = function(){ stop(); show(k - 1); };
  document.getElementById('next').onclick = function(){ stop(); show(k + 1); };
  document.getElementById('first').onclick = function(){ stop(); show(0); };
  document.getElementById('last').onclick = function(){ stop(); show(frames.length - 1); };
  play.onclick = function(){
    if (timer) { stop(); return; }
    if (k >= frames.length - 1) show(0);
    play.textContent = '\\u23F8 pause';
    timer = setInterval(function(){ if (k >= frames.length - 1) stop(); else show(k + 1); }, 800);
  };
  slider.oninput = function(){ stop(); show(+slider.value); };
  document.addEventListener('keydown', function(e){
    if (e.key === 'ArrowRight') { stop(); show(k + 1); } else if (e.key === 'ArrowLeft') { stop(); show(k - 1); }
  });
  document.querySelectorAll('.log li').forEach(function(li){
    li.onclick = function(){ stop(); show(+li.dataset.step); window.scrollTo(0, 0); };
  });
  document.querySelectorAll('input.optional').forEach(function(box){
    box.onchange = function(){
      document.querySelectorAll('.opt-' + box.value).forEach(function(el){
        el.style.display = box.checked ? 'block' : 'none';
      });
    };
  });
  show(0);
})();
"""


def page(story) -> str:
    """The whole page of ``story`` (a string of HTML, every picture inline)."""
    defs: dict[str, str] = {}
    blocks, optional, cut = frames(story, defs)
    n = len(blocks) - 1
    res = story.result
    standing = ", ".join(
        f"{name} {score:g}{' (wins)' if win and win >= 1 else ' (shares the win)' if win else ''}"
        for name, score, win in zip(story.names, res.get("score", []), res.get("win", []), strict=False)
    )
    marked = [k for k, s in enumerate(story.steps[: n + 1]) if s.marks]
    marked_words = (
        f"<p class='mark'>{len(marked)} step(s) where the hand ledger and the rules disagree: "
        + ", ".join(f"step {k}" for k in marked)
        + " (marked ⚠; click one in the list below).</p>"
        if marked
        else ""
    )
    cut_words = f"<p class='mark'>The last {cut} steps are left out to keep this page under 2 MB.</p>" if cut else ""
    boxes = "".join(
        f'<label><input type="checkbox" class="optional" value="{esc(o)}"> show {esc(o)}</label> ' for o in optional
    )
    log = "".join(
        f'<li data-step="{k}"{" class=marked" if s.marks else ""}>{esc(s.words)}'
        f"{' ⚠ ' + esc('; '.join(s.marks)) if s.marks else ''}</li>"
        for k, s in enumerate(story.steps[: n + 1])
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(story.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>
<body>{shared_defs(defs)}
<h1>{esc(story.title)}</h1>
<p>{esc(story.about)}</p>
<p>Final standing: {esc(standing)}.</p>{marked_words}{cut_words}
<div class="controls"><button id="first" title="first step">« first</button>
<button id="prev" title="previous step (←)">◀ previous</button><button id="play">▶ play</button>
<button id="next" title="next step (→)">next ▶</button><button id="last" title="last step">last »</button>
<input id="slider" type="range" min="0" max="{n}" value="0" aria-label="step">
<span id="counter">step 0 of {n}</span> {boxes}</div>
<main>{"".join(blocks)}</main>
<details><summary>Every step in words</summary><ol class="log" start="0">{log}</ol></details>
<script>{SCRIPT}</script>
</body></html>
"""


def write_page(out, text: str) -> str:
    """Write a page whole (a temporary file renamed: never half a page); an unwritable
    place is a one-line error naming it."""
    import os
    from pathlib import Path

    from gamelab.core.errors import GamelabError

    path = Path(out)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise GamelabError(f"--out {out}: cannot write the page ({exc.strerror or exc})") from None
    return str(path)
