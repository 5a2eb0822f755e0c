"""``python -m smart_docgemma.modelserver <llama_cpp.server flags>``: the embedded model's server
with its prompt cache, the process ``embedded.start_embedded_model`` starts."""
from .promptcache import main

main()
