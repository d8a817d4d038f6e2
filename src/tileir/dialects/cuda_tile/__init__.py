"""The cuda_tile dialect (CUDA Tile IR): types (:mod:`.types`), attributes and enums
(:mod:`.attributes`), ops one module per spec chapter (:mod:`.ops`; importing it registers the
dialect), custom format directives (:mod:`.directives`), verifier helpers (:mod:`.verify_util`,
:mod:`.type_verify`), type constraints (:mod:`.constraints`), its text syntax and fast parser
(:mod:`.syntax`, :mod:`.fastparse`) and the IR builder (:mod:`.builder`)."""
