"""Sound effects synthesised by emucore (numpy square waves through ``pygame.mixer``) and the
player of the music pieces of :mod:`emucore.frontend.music`.

Each effect is a short list of (frequency Hz, milliseconds) notes. With no audio device, or
when muted, every call is silent and never raises.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pygame

from emucore.frontend import music

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
    """Plays named effects and loops the screen's music (:mod:`emucore.frontend.music`) on a
    reserved channel; silent when there is no device or when muted. ``music`` names the
    piece the screens asked for even when nothing can be heard."""

    def __init__(self, enabled: bool = True) -> None:
        self.muted = False
        self.available = False
        self.volumes = {"music": 1.0, "effects": 1.0}  # 0..1 each, set in the pause menu
        self.music: str | None = None
        self._cache: dict[str, object] = {}
        if enabled:
            try:
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
                self.available = pygame.mixer.get_init() is not None
            except pygame.error:
                self.available = False
        if self.available:
            pygame.mixer.set_reserved(1)  # channel 0: music only

    def _sound(self, key: str, samples: Callable[[], np.ndarray]) -> object | None:
        """The cached pygame Sound of ``key``, made from ``samples()`` on first use."""
        sound = self._cache.get(key)
        if sound is None:
            data = samples()
            channels = pygame.mixer.get_init()[2]
            if channels > 1:
                data = np.repeat(data[:, None], channels, axis=1)
            try:
                sound = pygame.sndarray.make_sound(np.ascontiguousarray(data))
            except (pygame.error, ValueError):
                self.available = False
                return None
            sound.set_volume(self.volumes[_group(key)])
            self._cache[key] = sound
        return sound

    def play(self, name: str) -> None:
        """Play effect ``name`` (a key of :data:`EFFECTS`)."""
        if self.muted or not self.available:
            return
        sound = self._sound(name, lambda: square_wave(EFFECTS[name]))
        if sound is not None:
            sound.play()

    def play_music(self, name: str | None) -> None:
        """Loop piece ``name`` (a key of ``music.PIECES``) from its start, unless it is
        already the one playing; None keeps the current piece."""
        if name is None or name == self.music:
            return
        self.music = name
        self._restart_music()

    def _restart_music(self) -> None:
        if not self.available:
            return
        channel = pygame.mixer.Channel(0)
        channel.stop()
        if self.muted or self.music is None:
            return
        piece = self.music
        sound = self._sound(f"music:{piece}", lambda: music.render(piece))
        if sound is not None:
            channel.play(sound, loops=-1)

    def set_volume(self, group: str, volume: float) -> float:
        """Set the volume of ``group`` ("music" or "effects"), 0..1 clamped; returns it."""
        self.volumes[group] = value = min(max(volume, 0.0), 1.0)
        for key, sound in self._cache.items():
            if _group(key) == group:
                sound.set_volume(value)
        return value

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        self._restart_music()
        return self.muted


def _group(key: str) -> str:
    """The volume group of a cached sound's key: music pieces are "music:<piece>"."""
    return "music" if key.startswith("music:") else "effects"
