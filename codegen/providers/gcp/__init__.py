"""Google Cloud: discovery documents -> rules -> views over ``runtime/gcp/core.py``, with the
trimmed document shipped beside the code.

The provider object is ``provider.PROVIDER``; this module holds only its light facts."""

from codegen.providers.base import ProviderInfo

INFO = ProviderInfo(
    name="gcp",
    sdk="googleapiclient",
    distribution="google-api-python-client",
    manifest_key="googleapiclient_version",
    corpus_noun="discovery documents",
    scope_parameters=("project", "region", "zone"),
)
