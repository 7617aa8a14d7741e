"""tasklayer's generator: sources -> model -> annotate -> render -> writer."""
