"""AWS: botocore service models -> rules -> views over ``runtime/aws/core.py``.

The provider object is ``provider.PROVIDER``; this module holds only its light facts."""

from codegen.providers.base import ProviderInfo

INFO = ProviderInfo(name="aws", sdk="botocore", distribution="botocore", manifest_key="botocore_version")
