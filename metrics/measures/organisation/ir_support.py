"""Which IR measures an installed ``ir_measures`` provider computes, asked before any work.

``ir_measures`` parses many more names than its installed providers compute: a parameter may be
missing or of the wrong type (``SDCG@10`` needs ``max_rel``; ``BPM(T=1000)`` wants ``T`` as a
decimal number), the only provider may be a package that is not installed (``alpha_nDCG@20``:
pyndeval), or none may exist. Asking at evaluation time ends in an ``AssertionError``, a
``ValueError`` or a ``CalledProcessError``. :func:`ir_measure_problem` asks the providers'
declarations instead (``Provider.supports``, the measures' ``SUPPORTED_PARAMS``), computing
nothing, and says in one line why a measure cannot be computed and what would serve it.

Only providers that compute inside the process are used (:func:`ir_provider`): gdeval, which
``ir_measures`` runs as a Perl script on temporary files (its only route to ERR), is left out;
it fails on small campaigns.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["ir_measure_problem", "ir_provider", "OUT_OF_PROCESS"]

#: providers that ``ir_measures`` runs as a separate program (not used by Unanimity)
OUT_OF_PROCESS = {"gdeval": "a Perl script run on temporary files, which fails on small "
                            "campaigns"}


_KINDS = {int: "whole number", float: "decimal number", str: "word", bool: "True or False"}


def _example(measure, name: str, value) -> str:
    """The measure written with ``name=value`` (its canonical ``ir_measures`` string)."""
    try:
        return str(measure(**{name: value}))
    except (TypeError, ValueError, AssertionError):
        return f"{name}={value!r}"


def _param_problems(measure) -> list[str]:
    """What is wrong with the parameters of a parsed measure, per its declaration."""
    from ir_measures.measures.base import _NOT_PROVIDED  # noqa: PLC0415

    out = []
    for name, info in measure.SUPPORTED_PARAMS.items():
        value = measure.params.get(name, _NOT_PROVIDED)
        if info.validate(value):
            continue
        desc = f" ({info.desc})" if info.desc else ""
        if value is _NOT_PROVIDED:
            example = _example(measure, name, 10 if name == measure.AT_PARAM else 3)
            out.append(f"it needs {name}{desc}, e.g. {example}")
        elif info.dtype is not None and not isinstance(value, info.dtype):
            kind = _KINDS.get(info.dtype, info.dtype.__name__)
            fixed = info.dtype(value) if info.dtype in (int, float) else value
            out.append(f"{name}={value!r} must be a {kind}{desc}, e.g. "
                       f"{_example(measure, name, fixed)}")
        else:
            out.append(f"{name}={value!r} is not one of {list(info.choices)}{desc}")
    return out


def _provider_needs(provider, measure) -> list[str]:
    """How the measure would have to be written for ``provider`` to compute it."""
    from ir_measures.measures.base import _NOT_PROVIDED  # noqa: PLC0415

    needs = []
    for spec in provider.SUPPORTED_MEASURES:
        if spec.NAME != measure.NAME:
            continue
        wants = []
        for name, check in spec.params.items():
            value = measure[name]
            if check.validate(value):
                continue
            choices = [c for c in getattr(check, "choices", ()) if c is not _NOT_PROVIDED]
            if value is _NOT_PROVIDED:
                info = measure.SUPPORTED_PARAMS.get(name)
                desc = f" ({info.desc.split(',')[0]})" if info is not None and info.desc else ""
                wants.append(f"{name}{desc} given, e.g. {_example(measure, name, 1)}")
            elif choices:
                wants.append(f"{name} one of {choices}")
            else:
                wants.append(f"no {name}")
        needs.append(", ".join(wants))
    return [n for n in needs if n]


@lru_cache(maxsize=256)
def ir_measure_problem(text: str) -> str | None:
    """Why no installed in-process provider computes the IR measure ``text`` (a name
    ``ir_measures`` parses), and what would serve it; None when one computes it.

    The answer is one line: the parameter to add or fix, the package to install, or that no
    provider computes the measure.
    """
    import ir_measures  # noqa: PLC0415

    measure = ir_measures.parse_measure(text)
    problems = _param_problems(measure)
    if problems:
        return "; ".join(problems)
    in_process = [p for p in ir_measures.DefaultPipeline.providers if p.NAME not in OUT_OF_PROCESS]
    if any(p.supports(measure) and p.is_available() for p in in_process):
        return None
    installable = [p for p in in_process if p.supports(measure)]
    if installable:
        how = "; ".join(f"{p.NAME} ({p.install_instructions()})" for p in installable)
        return f"no installed provider computes it; it needs {how}"
    elsewhere = [p.NAME for p in ir_measures.providers.registry.values()
                 if p.NAME in OUT_OF_PROCESS
                 and any(s.NAME == measure.NAME for s in p.SUPPORTED_MEASURES)]
    if elsewhere:
        return (f"ir_measures computes {measure.NAME} only with {elsewhere[0]}, "
                f"{OUT_OF_PROCESS[elsewhere[0]]}: Unanimity does not run it, and no installed "
                "provider computes it in the process")
    fixes = [f"{p.NAME} computes {measure.NAME} with {need}" for p in in_process
             for need in _provider_needs(p, measure)]
    if fixes:
        return "no installed provider computes it as written; " + "; ".join(fixes[:3])
    return f"no provider of ir_measures computes {measure.NAME}"


@lru_cache(maxsize=1)
def ir_provider():
    """The ``ir_measures`` pipeline of providers, without those that run outside the process."""
    import ir_measures  # noqa: PLC0415

    return ir_measures.providers.FallbackProvider(
        [p for p in ir_measures.DefaultPipeline.providers if p.NAME not in OUT_OF_PROCESS])
