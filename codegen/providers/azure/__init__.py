"""Azure Resource Manager: Swagger 2.0 documents of Azure/azure-rest-api-specs, pinned file by
file, -> rules. Annotate-only for now (``INFO.renders`` is False): no runtime adapter exists
to render its resources against, so ``generate`` renders none of them.

The provider object is ``provider.PROVIDER``; this module holds only its light facts."""

from codegen.providers.base import ProviderInfo

INFO = ProviderInfo(
    name="azure",
    sdk="azure-rest-api-specs",
    distribution="azure-rest-api-specs",
    manifest_key="specs_pin",
    corpus_noun="Swagger documents",
    scope_parameters=("subscriptionId", "resourceGroupName", "scope"),
    renders=False,
)
