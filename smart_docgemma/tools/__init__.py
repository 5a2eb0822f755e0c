"""Clinical tools: FHIR reads, approval-gated FHIR writes, public knowledge sources."""
