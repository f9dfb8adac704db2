"""The build, from the bundled sources to a stored knowledge base: the manifest, the parsers, the cross-references, the
editions' changes, the search data and the pipeline that runs them (kb.builder.pipeline.build)."""

__version__ = "0.1.0"
"""The version of rulings, stamped on every build it makes (kb.__version__; pyproject.toml reads it here)."""
