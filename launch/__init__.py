"""The local EHR sandbox: HAPI FHIR upstream, scenario fixtures, SMART authorization
server, launcher and FHIR proxy, and the ``docgemma-sandbox`` stack command."""
