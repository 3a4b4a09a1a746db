"""Why a candidate cannot be built, in words a buyer understands.

The reason is the generator's own refusal (it already says what fails and why: the port
arithmetic, the speeds the parts share), with the command-line advice it gives turned into the
thing to change ("--tiers 3 or --core ID" -> "a core tier"), and prefixed with what the
candidate asked for when the refusal follows from it (four planes split each NIC in four).
"""

from __future__ import annotations

import re

from .axes import Combination

_ADVICE = (
    (re.compile(r"\(--tiers 3 or --core ID\)"), "(a core tier)"),
    (re.compile(r"--tiers 3 or --core ID"), "a core tier"),
    (re.compile(r"use --nodes-per-su (\d+)"), r"use scalable units of \1 servers"),
    (re.compile(r"--nodes-per-su (\d+(?: or \d+)*)"), r"scalable units of \1 servers"),
    (re.compile(r"--sus (\d+) with"), r"\1 scalable units of"),
    (re.compile(r"with --planes (\d)"), r"with \1 planes"),
    (re.compile(r"--planes (\d) splits"), r"\1 planes split"),
    (re.compile(r"--planes (\d)"), r"\1 planes"),
    (re.compile(r"use --attach rail"), "use the rail layout"),
    (re.compile(r", or generate the topology without media \(--no-media\)"), ""),
    (re.compile(r"; choose rocev2 or ethernet\b"), "; they carry RoCEv2 or Ethernet, not "
                                                   "InfiniBand"),
    (re.compile(r"; choose infiniband\b"), "; they carry InfiniBand, not Ethernet"),
    (re.compile(r"use the three-tier template"), "use three tiers"),
    (re.compile(r"--tiers 3 and --core \S+ would put"), "three tiers would put"),
    (re.compile(r"--tiers 2 would put"), "two tiers would put"),
    (re.compile(r"use --tiers auto(?: and drop --core)?"), "use tiers auto"),
    (re.compile(r"use two tiers \(--tiers 2\)"), "use two tiers"),
    (re.compile(r"use the two-tier template"), "use two tiers"),
    (re.compile(r"--leaves-per-pod (\d+)"), r"pods of \1 leaves"),
)


def plain(message: str) -> str:
    """A generator message with its command-line advice said as the thing to change."""
    for pattern, replacement in _ADVICE:
        message = pattern.sub(replacement, message)  # type: ignore[arg-type]
    return message


_SPEED = re.compile(r"^(\d+)G is not a speed that .+ all run; common speeds: .+$")


def _speed_words(message: str, combo: Combination, speeds: dict[str, set[int]]) -> str | None:
    """`200G is not a speed that A and B all run` said as which part lacks it."""
    match = _SPEED.match(message)
    if not match:
        return None
    speed = int(match.group(1))
    lacking = [(name, runs) for name, runs in speeds.items() if speed not in runs]
    if not lacking:
        return None
    wanted = (f"{combo.planes} planes run each GPU's NIC as {combo.planes} x {speed}G ports"
              if combo.planes > 1 else f"{speed}G ports were asked for")
    parts = "; ".join(
        f"the {name} does not offer {speed}G (it runs "
        f"{', '.join(f'{s}G' for s in sorted(runs, reverse=True)) or 'no fabric port'})"
        for name, runs in lacking)
    return f"{wanted}, and {parts}"


def _wants_more_tiers(message: str) -> bool:
    return "three tiers" in message or "core tier" in message


def refusal(combo: Combination, messages: list[str],
            speeds: dict[str, set[int]] | None = None) -> str:
    """The reason a candidate cannot be built, from the generator's refusals of each template
    tried (two tiers, then three, for tiers `auto`); `speeds`: the port speeds of the models
    involved, by model name, to say which part lacks a speed."""
    worded = [_speed_words(m, combo, speeds or {}) for m in messages]
    if any(worded):
        return next(w for w in worded if w)
    unique = list(dict.fromkeys(plain(m) for m in messages))
    if len(unique) == 2 and combo.tiers == "auto":
        # two tiers too small: the three-tier refusal says why; else the hardware is the
        # reason, and the two-tier message says it first
        two, three = unique
        text = f"three tiers: {three}" if _wants_more_tiers(two) else two
    else:
        text = "; ".join(unique)
    if combo.planes > 1 and "planes" not in text:
        text = f"{combo.planes} planes split each GPU's NIC into {combo.planes} ports: {text}"
    return text
