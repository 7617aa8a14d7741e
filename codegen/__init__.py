"""tasklayer's generator: sources -> model -> annotate -> render -> writer."""

__version__ = "0.1.0"
