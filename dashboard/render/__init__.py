"""Pure builders of what pages show besides figures: HTML tables, the Compare page's words of a
pair, the Data page's messages, the self-contained HTML report and the downloads. No Streamlit,
nothing computed: each renders a result of ``metrics``.
"""
