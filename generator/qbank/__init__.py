"""qbank: interview and study question banks as YAML, published as a multilingual study site."""

__version__ = "0.1.0"
