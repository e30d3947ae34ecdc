"""Text that fits: the one rule for shortening names, and the checks that keep text inside its
boxes and off other text.

**The fitting rule** (:func:`fit`): text is wrapped at spaces and after hyphens into at
most ``lines`` lines of ``width`` pixels. Text that fits is drawn whole; text that does not
loses whole words from its end (or, ``from_end``, from its start: "...Muran" keeps the word
that tells two duelists apart) and :data:`MORE` stands where they were. A word wider than a
line is broken over lines with a hyphen where there are lines for it ("Tatsunootosh-" /
"igo" on a large card). A word is never cut otherwise, with one exception: in a one-line box
a single word wider than the line is shortened letter by letter to a stem and a dot
("Kairyu-" in five columns: "Kair."), the only place a dot marks a cut; the tests keep every
name out of that case in the boxes the screens use.

The checks work on the text rectangles a :class:`~emucore.frontend.framebuffer.Framebuffer`
records while ``fb.text_rects`` is a list (tests switch it on; drawing is unchanged): text
outside the screen, text over text and, given a :class:`Vocabulary` of the words the screens
may show, words cut short ("Polymerizati.", "atta.": what is left of a longer word, ended by
a dot). A player reads a cut word as a fault, so a screen must find room for whole words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from emucore.frontend.framebuffer import CELL_H, CELL_W, Framebuffer

Rect = tuple[int, int, int, int]  # x, y, width, height
MIN_STEM = 2  # letters a word too wide for its line keeps before its dot
MORE = "..."  # stands for the words left off (the font has no ellipsis)


def columns(width: int) -> int:
    """How many characters fit in ``width`` pixels (the last cell's blank column may stick
    out)."""
    return max((width + 1) // CELL_W, 0)


def _tokens(text: str) -> list[tuple[str, bool]]:
    """(word, follows a space) pairs; a hyphenated word splits after each hyphen."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        for i, part in enumerate(re.findall(r"[^-]*-|[^-]+", word)):
            out.append((part, i == 0))
    return out


def _wrap(tokens: Sequence[tuple[str, bool]], cols: int) -> list[str] | None:
    """Greedy wrap; None when one token alone is wider than a line."""
    lines: list[str] = []
    line = ""
    for word, spaced in tokens:
        if len(word) > cols:
            return None
        joined = f"{line} {word}" if line and spaced else line + word
        if len(joined) > cols:
            lines.append(line)
            line = word
        else:
            line = joined
    return [*lines, line] if line or not lines else lines


def _shown(word: str, keep: int | None) -> str:
    """``word`` whole (``keep`` None) or its first ``keep`` letters and a dot (a trailing
    hyphen stays)."""
    if keep is None:
        return word
    core = word.rstrip("-")
    return core[:keep] + "." + word[len(core):]


@functools.lru_cache(maxsize=8192)
def fit(text: str, width: int, lines: int = 1, from_end: bool = False) -> tuple[str, ...]:
    """``text`` as at most ``lines`` lines each at most ``width`` pixels wide, by the
    module's fitting rule: whole, else whole words left off (from the start with
    ``from_end``) and :data:`MORE` in their place."""
    cols = columns(width)
    tokens = _tokens(text)
    if not tokens:
        return ("",)
    if lines > 1:
        tokens = _hyphenated(tokens, cols)
    for count in range(len(tokens), 0, -1):  # all words, then one fewer...
        wrapped = _wrap(_kept(tokens, count, from_end), cols)
        if wrapped is not None and len(wrapped) <= lines:
            return tuple(wrapped)
    return _shortened(tokens[-1][0] if from_end else tokens[0][0], cols, lines)


def _hyphenated(tokens: list[tuple[str, bool]], cols: int) -> list[tuple[str, bool]]:
    """A word wider than a line broken over lines with a hyphen ("Tatsunootosh-", "igo"):
    pieces of one letter less than a line, each but the last ending in ``-``."""
    out: list[tuple[str, bool]] = []
    for word, spaced in tokens:
        step = max(cols - 1, 1)
        while len(word) > cols:
            out.append((word[:step] + "-", spaced))
            word, spaced = word[step:], False
        out.append((word, spaced))
    return out


def _kept(tokens: list[tuple[str, bool]], count: int,
          from_end: bool) -> list[tuple[str, bool]]:
    """``count`` of the tokens, with :data:`MORE` joined to the side the others left (a
    word before it loses a dangling hyphen)."""
    if count == len(tokens):
        return tokens
    if from_end:
        first, *rest = tokens[len(tokens) - count:]
        return [(MORE, True), (first[0], False), *rest]
    *kept, last = tokens[:count]
    return [*kept, (last[0].rstrip("-"), last[1]), (MORE, False)]


def _shortened(word: str, cols: int, lines: int) -> tuple[str, ...]:
    """The exception of the fitting rule: a word wider than its line, shortened to a stem
    and a dot (cut hard only when even that is too wide)."""
    word = word.rstrip("-")  # the rest of a hyphenated word is left off
    keep: int | None = None
    while True:
        wrapped = _wrap([(_shown(word, keep), True)], cols)
        if wrapped is not None and len(wrapped) <= lines:
            return tuple(wrapped)
        keep = len(word) - 2 if keep is None else keep - 1
        if keep < MIN_STEM:
            return (word[:cols],)


def inside(rect: Rect, box: Rect) -> bool:
    """Whether ``rect`` lies wholly within ``box``."""
    x, y, w, h = rect
    bx, by, bw, bh = box
    return bx <= x and by <= y and x + w <= bx + bw and y + h <= by + bh


def overlap(a: Rect, b: Rect) -> bool:
    """Whether two rectangles share a pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and \
        b[1] < a[1] + a[3]


WORD = re.compile(r"[A-Za-z][A-Za-z']*")
CUT = re.compile(r"([A-Za-z][A-Za-z']*)\.")
LAST = re.compile(r"(?:^|[^A-Za-z'])([A-Za-z][A-Za-z']*)$")  # a word ending the text


class Vocabulary:
    """The whole words screens may show (card and duelist names, the sentences of the code),
    to tell a word cut short from a word: a fragment is cut when it is not a word itself but
    begins a longer one. Letters are compared without case."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.words = frozenset(w.lower() for text in texts for w in WORD.findall(text))
        self.stems = frozenset(w[:n] for w in self.words for n in range(MIN_STEM, len(w)))

    def cuts(self, text: str) -> list[str]:
        """The fragments of ``text`` that are cut words: ended by a dot ("atta." in "Gaia
        atta. dire.") or ending the text with no mark at all ("Fast anim")."""
        found = [f"{m.group(1)}." for m in CUT.finditer(text) if self._cut(m.group(1))]
        last = LAST.search(text)
        return found + [last.group(1)] if last and self._cut(last.group(1)) else found

    def _cut(self, fragment: str) -> bool:
        """Whether ``fragment`` begins a longer word without being a word itself."""
        return fragment.lower() in self.stems and fragment.lower() not in self.words


def problems(rects: Iterable[tuple[Rect, str]], box: Rect,
             vocabulary: Vocabulary | None = None) -> list[str]:
    """What is wrong with a frame's text: pieces outside ``box`` (usually the screen),
    pairs of pieces that overlap and (with a ``vocabulary``) words cut short, one line each
    (empty when the text is clean)."""
    rects = list(rects)
    found = [f"{text!r} at {rect} leaves {box}" for rect, text in rects
             if not inside(rect, box)]
    if vocabulary is not None:
        found += [f"{text!r} at {rect} cuts {cut!r}" for rect, text in rects
                  for cut in vocabulary.cuts(text)]
    for i, (a, text_a) in enumerate(rects):
        for b, text_b in rects[i + 1:]:
            if overlap(a, b):
                found.append(f"{text_a!r} at {a} overlaps {text_b!r} at {b}")
    return found


def draw_fitted(fb: Framebuffer, x: int, y: int, text: str, width: int, colour: int,
                lines: int = 1, shadow: int | None = None, from_end: bool = False) -> int:
    """Draw ``text`` fitted by :func:`fit` into ``width`` pixels and ``lines`` lines from
    (x, y), one line per character cell; returns the number of lines drawn."""
    fitted = fit(text, width, lines, from_end)
    for i, line in enumerate(fitted):
        fb.text(x, y + i * CELL_H, line, colour, shadow)
    return len(fitted)
