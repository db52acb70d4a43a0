"""Pure Plotly figure builders: ``(data, options) -> go.Figure``.

No Streamlit here and no metric computed here: every builder receives numbers the ``metrics``
package computed and only draws them. :mod:`~dashboard.figures.style` holds the shared look
(Okabe-Ito colour-blind-safe palette; system A always blue, system B always vermillion);
:mod:`~dashboard.figures.campaign`, :mod:`~dashboard.figures.uir`, :mod:`~dashboard.figures.pair`
and :mod:`~dashboard.figures.testbeds` the charts of the whole campaign's ranking, of the UIR
analysis over all pairs, of one pair and of the test beds.
"""

from dashboard.figures.campaign import *  # noqa: F401,F403
from dashboard.figures.campaign import __all__ as _campaign
from dashboard.figures.pair import *  # noqa: F401,F403
from dashboard.figures.pair import __all__ as _pair
from dashboard.figures.style import *  # noqa: F401,F403
from dashboard.figures.style import __all__ as _style
from dashboard.figures.testbeds import *  # noqa: F401,F403
from dashboard.figures.testbeds import __all__ as _testbeds
from dashboard.figures.uir import *  # noqa: F401,F403
from dashboard.figures.uir import __all__ as _uir

__all__ = [*_style, *_campaign, *_uir, *_pair, *_testbeds]
