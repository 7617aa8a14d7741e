"""Sources: load cloud API schemas with the libraries made for them, from pinned copies.

``aws`` pins botocore service models into ``schemas/aws`` and loads them back through
botocore's own Loader / ServiceModel / WaiterModel; ``manifest`` records what is pinned and
its sha256; ``validate`` turns malformed schemas into errors with a file and JSON pointer.
"""

from codegen.sources.aws import (
    AwsSource,
    installed_services,
    load_installed,
    load_pinned,
    pin,
    pinned_services,
)

__all__ = [
    "AwsSource",
    "installed_services",
    "load_installed",
    "load_pinned",
    "pin",
    "pinned_services",
]
