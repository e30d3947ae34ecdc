"""Text that fits: the one rule for shortening names, and the checks that keep text inside its
boxes and off other text.

**The abbreviation rule** (:func:`fit`): text is wrapped at spaces and after hyphens into at
most ``lines`` lines of ``width`` pixels. While it still does not fit, the longest word (the
last of equally long ones) is shortened by one character and ends in ``.`` ("Marmot" ->
"Marm." -> "Mar."), never below two letters and the dot (so words of three letters stay
whole); when every word is that short, the last word is left off and the rule starts again
from the whole remaining words. A word is therefore never cut without a dot saying so, and
text that fits is drawn whole.

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
MIN_STEM = 2  # letters an abbreviated word keeps before its dot


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
def fit(text: str, width: int, lines: int = 1) -> tuple[str, ...]:
    """``text`` as at most ``lines`` lines each at most ``width`` pixels wide, shortened by
    the module's abbreviation rule when it does not fit whole."""
    cols = columns(width)
    tokens = _tokens(text)
    for count in range(len(tokens), 0, -1):  # all words, then one fewer from the end...
        kept = tokens[:count]
        if count < len(tokens):  # no dangling hyphen before a word left off
            kept = [*kept[:-1], (kept[-1][0].rstrip("-"), kept[-1][1])]
        fitted = _abbreviate(kept, cols, lines)
        if fitted is not None:
            return fitted
    return (text.strip()[:cols],) if tokens else ("",)  # one word wider than its abbreviation


def _abbreviate(tokens: Sequence[tuple[str, bool]], cols: int,
                lines: int) -> tuple[str, ...] | None:
    """The tokens wrapped into ``lines`` lines of ``cols`` characters, the longest words
    shortened one letter at a time; None when even the shortest forms do not fit."""
    keep: list[int | None] = [None] * len(tokens)
    while True:
        shown = [(_shown(word, k), spaced)
                 for (word, spaced), k in zip(tokens, keep, strict=True)]
        wrapped = _wrap(shown, cols)
        if wrapped is not None and len(wrapped) <= lines:
            return tuple(wrapped)
        # letters each word keeps after one more step; a step must make the word shorter
        steps = [len(w.rstrip("-")) - 2 if k is None else k - 1
                 for (w, _), k in zip(tokens, keep, strict=True)]
        candidates = [i for i, s in enumerate(steps) if s >= MIN_STEM]
        if not candidates:
            return None
        i = max(candidates, key=lambda i: (len(shown[i][0]), i))
        keep[i] = steps[i]


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
                lines: int = 1, shadow: int | None = None) -> int:
    """Draw ``text`` fitted by :func:`fit` into ``width`` pixels and ``lines`` lines from
    (x, y), one line per character cell; returns the number of lines drawn."""
    fitted = fit(text, width, lines)
    for i, line in enumerate(fitted):
        fb.text(x, y + i * CELL_H, line, colour, shadow)
    return len(fitted)
