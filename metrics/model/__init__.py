"""The campaign model: campaigns, validation reports, contingency tables and score tables."""
