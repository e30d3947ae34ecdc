"""The pygame-ce frontend: machine profiles, framebuffer, pacing, pad input and screens.

Only this package imports pygame. See docs/frontend.md for the Screen API that systems use.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
