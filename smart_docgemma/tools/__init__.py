"""Clinical tools: chart reads, public knowledge sources, approval-gated chart writes."""
