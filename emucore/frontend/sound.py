"""Sound effects synthesised by emucore (numpy square waves through ``pygame.mixer``).

Each effect is a short list of (frequency Hz, milliseconds) notes. With no audio device, or
when muted, every call is silent and never raises.
"""

from __future__ import annotations

import numpy as np
import pygame

RATE = 22050
VOLUME = 0.18

EFFECTS: dict[str, tuple[tuple[int, int], ...]] = {
    "move": ((880, 25),),
    "confirm": ((660, 40), (990, 60)),
    "cancel": ((440, 40), (330, 60)),
    "error": ((200, 90), (150, 90)),
    "draw": ((520, 30), (780, 30)),
    "fusion": ((392, 60), (523, 60), (659, 60), (784, 120)),
    "battle": ((130, 70), (98, 140)),
    "damage": ((300, 50), (220, 50), (160, 90)),
    "magic": ((1047, 50), (1319, 50), (1568, 90)),
    "trap": ((880, 60), (622, 60), (440, 90)),
    "win": ((523, 120), (659, 120), (784, 120), (1047, 300)),
    "lose": ((392, 160), (330, 160), (262, 320)),
}


def square_wave(notes: tuple[tuple[int, int], ...], rate: int = RATE) -> np.ndarray:
    """int16 mono samples of a sequence of square-wave notes with a short decay each."""
    parts = []
    for freq, ms in notes:
        n = rate * ms // 1000
        t = np.arange(n)
        wave = np.where((t * freq * 2 // rate) % 2 == 0, 1.0, -1.0)
        envelope = np.linspace(1.0, 0.3, n)
        parts.append(wave * envelope * VOLUME * 32767)
    return np.concatenate(parts).astype(np.int16)


class Sound:
    """Plays named effects; silent when there is no device or when muted."""

    def __init__(self, enabled: bool = True) -> None:
        self.muted = False
        self.available = False
        self._cache: dict[str, object] = {}
        if enabled:
            try:
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
                self.available = pygame.mixer.get_init() is not None
            except pygame.error:
                self.available = False

    def play(self, name: str) -> None:
        """Play effect ``name`` (a key of :data:`EFFECTS`)."""
        if self.muted or not self.available:
            return
        sound = self._cache.get(name)
        if sound is None:
            samples = square_wave(EFFECTS[name])
            channels = pygame.mixer.get_init()[2]
            if channels > 1:
                samples = np.repeat(samples[:, None], channels, axis=1)
            try:
                sound = pygame.sndarray.make_sound(np.ascontiguousarray(samples))
            except (pygame.error, ValueError):
                self.available = False
                return
            self._cache[name] = sound
        sound.play()

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted
