"""Unanimity: clustering evaluation and the robustness of system comparisons (UIR).

Data flows one way: files -> :mod:`metrics.io` -> :class:`~metrics.model.campaign.Campaign` ->
score tables -> comparisons and analyses -> report objects -> dashboard / CLI.
"""

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import load, load_files
from metrics.model.campaign import Campaign, Membership

__all__ = ["Campaign", "Membership", "CampaignFormatError", "UnanimityError", "load", "load_files"]
__version__ = "0.1.0"
