"""The Kubernetes cloud-provider face: LoadBalancer, Routes and InstancesV2 over generated tasks."""
