"""Chart writes: tools that draft a FHIR resource as a proposal for the clinician."""
