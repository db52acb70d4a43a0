"""The measures by family (clustering, type level, document organisation), their registry and
the campaign -> score table step."""
