"""A worker process of the type-level search, started as ``python -m`` of this module.

The caller (:mod:`metrics.measures.typelevel.mapping_workers`) starts it with its standard input
and output as pipes and sends one job after another: the caller's module search path
(``sys.path``), its environment (the thread caps included) and a pickled ``(fn, argument)``,
``fn`` a module-level function. The worker puts the caller's path first and takes its
environment (as the caller sees it when it sends the job), then answers with
``(True, fn(argument))`` or ``(False, (exception, traceback text))``, and ends when its input
closes (the caller ended or died). Every message is a pickle preceded by its length
(:func:`send_bytes`, :func:`receive_bytes`). Nothing else is imported: the worker never runs
the caller's main module, only the modules that ``fn`` and its argument name
(``docs/type-level.md``, "The topics in parallel").
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import traceback
from typing import IO, Any

__all__ = ["main", "receive", "receive_bytes", "send", "send_bytes"]

_LENGTH = struct.Struct("<Q")


def send_bytes(stream: IO[bytes], data: bytes) -> None:
    """Write ``data`` as one frame (its length, then the bytes) and flush."""
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def send(stream: IO[bytes], message: Any) -> None:
    """Write the pickle of ``message`` as one frame (:func:`send_bytes`)."""
    send_bytes(stream, pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def receive_bytes(stream: IO[bytes]) -> bytes:
    """The pickle of the next frame.

    Raises
    ------
    EOFError
        When the stream ends before a whole frame (the other side ended).
    """
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the pipe closed")
    (length,) = _LENGTH.unpack(head)
    data = stream.read(length)
    if len(data) < length:
        raise EOFError("the pipe closed within a message")
    return data


def receive(stream: IO[bytes]) -> Any:
    """The next frame's message (:func:`receive_bytes`, unpickled)."""
    return pickle.loads(receive_bytes(stream))


def _failure(err: BaseException) -> tuple[bool, tuple]:
    """``(False, (err, traceback text))``, or, when ``err`` does not survive pickling, its type's
    name and message in its place."""
    text = "".join(traceback.format_exception(err))
    try:
        pickle.loads(pickle.dumps(err, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # an exception that cannot travel: its name and message do
        return False, (f"{type(err).__module__}.{type(err).__qualname__}", str(err), text)
    return False, (err, text)


def _answer(message: bytes) -> bytes:
    """The pickled answer to one message ``(caller's path, caller's environment, pickled
    (fn, argument))``: ``(True, fn(argument))`` or :func:`_failure`."""
    try:
        caller_path, caller_env, job = pickle.loads(message)  # text and bytes: imports nothing
        sys.path[:] = [*caller_path, *(p for p in sys.path if p not in caller_path)]
        if caller_env != os.environ:
            os.environ.clear()
            os.environ.update(caller_env)
        fn, argument = pickle.loads(job)
        answer: tuple = (True, fn(argument))
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:
        return pickle.dumps(_failure(err), protocol=pickle.HIGHEST_PROTOCOL)


def main() -> int:
    """Answer the messages of standard input until it closes (module docstring); 0 then.

    Standard output is kept for the answers: what a job prints goes to standard error.
    """
    inbox = os.fdopen(os.dup(0), "rb")
    outbox = os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    try:
        while True:
            try:
                message = receive_bytes(inbox)
            except EOFError:
                return 0
            send_bytes(outbox, _answer(message))
    except (KeyboardInterrupt, BrokenPipeError):  # the caller was interrupted or ended
        return 1


if __name__ == "__main__":
    sys.exit(main())
