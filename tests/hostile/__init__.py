"""The hostile and malformed input corpus (issue 9): see corpus.py for the cases and
test_corpus.py for what each must end in."""
