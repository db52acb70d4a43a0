"""Text for a terminal: control characters shown escaped, never sent raw
(``docs/output-safety.md``).

System, topic and file names come from the people who made a campaign or a bundle. Printed raw,
an escape sequence in one can clear the screen, retitle the window, plant a hyperlink (OSC 8)
or hide text (a carriage return, right-to-left overrides). The command line therefore writes
through :class:`EscapingStream`, which shows every C0 control but newline and tab, DEL, every
C1 control and the bidirectional overrides as Python escapes (``\\x1b``, ``\\r``, ``\\u202e``).
"""

from __future__ import annotations

import io

__all__ = ["escape_controls", "EscapingStream", "data_stream"]

_CONTROLS = ([c for c in range(0x20) if c not in (0x09, 0x0A)] + [0x7F] + list(range(0x80, 0xA0))
             + [0x200E, 0x200F] + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)))
_ESCAPES = {c: ("\\r" if c == 0x0D else f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}")
            for c in _CONTROLS}


def escape_controls(text: str) -> str:
    """``text`` with control characters (not newline, not tab) written as escapes."""
    return text.translate(_ESCAPES)


class EscapingStream(io.TextIOBase):
    """A text stream that writes to ``stream`` with :func:`escape_controls` applied."""

    def __init__(self, stream) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escape_controls(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]  # read-only, as the wrapped stream's
        return getattr(self.stream, "encoding", "utf-8")


def data_stream(stream):
    """Where a table written to standard output goes: through the escaping when it is a
    terminal, byte for byte to a pipe or a file."""
    if isinstance(stream, EscapingStream) and not stream.isatty():
        return stream.stream
    return stream
