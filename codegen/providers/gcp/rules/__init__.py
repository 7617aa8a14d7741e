"""The generic GCP rules over Google discovery documents, run in the order ``run`` lists them."""
