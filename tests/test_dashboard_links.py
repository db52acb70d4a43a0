"""The sidebar's test controls headless (``AppTest``): a cleared paired-test or correction box
means the profile's own choice, not a crash of every page. (``AppTest`` does not write bound
widgets into its query parameters, so link exactness itself is tested in a real browser,
tests/e2e/test_browser_links.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402
from test_dashboard_app import APP, TIMEOUT, assert_clean  # noqa: E402


def test_a_cleared_test_or_correction_box_means_the_profiles_choice():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.segmented_control(key="profile").set_value("jair2011").run()
    at.selectbox(key="test").set_value(None).run()
    at.selectbox(key="correction").set_value(None).run()
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert (sel.test, sel.correction) == ("wilcoxon", "none")
