"""Chart reads: the patient's FHIR resources read into ``ChartData``; the chart answers."""
