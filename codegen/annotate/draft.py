"""The drafts live beside the model (``codegen.draft``); the rules import them from here too."""

from codegen.draft import FIELD_DEFAULTS, FieldDraft, ResourceDraft, ServiceDraft

__all__ = ["FIELD_DEFAULTS", "FieldDraft", "ResourceDraft", "ServiceDraft"]
