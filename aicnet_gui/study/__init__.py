"""Which fabric to buy: a study builds every candidate design a requirement allows and sets
them side by side (`aicnet compare`; the GUI's comparison view calls the same API).

    requirement (model/fabric.py `Requirement`) -> combinations of the allowed values (axes.py)
    -> one complete design per combination, built by the generators (generator_calls.py, the one module
       that calls them), placed in racks, every link with media, written as a `.fabric`
    -> metrics read from that design's own BOM, analysis, traffic model (the collective time
       under the design's own load balancing, the analysis' even spread beside it), what-if
       sweep and growth plan (candidate_metrics.py, traffic_estimates.py, resilience.py,
       headroom.py, classes.py)
    -> Pareto marks on (cost, collective time) and (power, collective time) (pareto.py)

Candidates build in worker processes, one design each (run.py, worker.py), with progress and
cancellation; a cancelled study keeps the candidates that finished.  A requirement nothing
can satisfy is refused first, with what would work (feasibility.py); a price list is checked line by
line (price_check.py).

Public API: `Study` (prepare a requirement), `run_study`, `StudyResult`, `Candidate`,
`StudyProgress`, `StudyError`.
"""

from .candidate import Candidate, CandidateMetrics, StudyResult
from .feasibility import StudyError
from .run import Study, StudyProgress, run_study

__all__ = [
    "Candidate",
    "CandidateMetrics",
    "Study",
    "StudyError",
    "StudyProgress",
    "StudyResult",
    "run_study",
]
