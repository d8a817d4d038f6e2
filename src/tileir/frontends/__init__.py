"""Front ends: other languages lowered to cuda_tile (see ``tinytc``)."""
