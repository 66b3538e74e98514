"""Question answering: parse → plan → SPARQL → answer, one module per domain."""
