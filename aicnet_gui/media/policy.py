"""Which media the automatic choice may use: the media classes per tier pair, parts it must not
use, the multimode fibre grade (pydantic; a generator template carries one as its `media`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MediaClass = Literal["dac", "acc", "aec", "aoc", "mmf", "smf"]
TierPair = Literal["server-leaf", "leaf-spine", "spine-core"]
MEDIA_CLASSES: tuple[str, ...] = ("dac", "acc", "aec", "aoc", "mmf", "smf")


class MediaParams(BaseModel):
    """Which media the automatic choice may use, per tier; the cheapest one that reaches wins."""

    model_config = ConfigDict(extra="forbid")

    allowed: dict[TierPair, list[MediaClass]] = Field(
        default_factory=dict,
        description="per tier pair, the media classes allowed (default: all)",
    )
    excluded_parts: list[str] = Field(
        default_factory=list, description="catalog ids the choice must not use"
    )
    fibre_grade: Literal["OM3", "OM4", "OM5"] = Field(
        default="OM4", description="multimode fibre grade of the patch cords"
    )
