"""The pipeline every agent turn runs, whatever surface it comes from."""
