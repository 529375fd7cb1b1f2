"""Protobuf modules generated from the repository's proto/ at build time
(``generate_proto.py``); never edited or committed."""
