"""Input and output checks shared by the engine and the output-review API."""
