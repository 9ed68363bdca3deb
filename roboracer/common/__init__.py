"""The bottom layer's shared vocabulary (issue 35, docs/architecture.md): the errors every app's services raise
(`errors`), the API's error format (`api_errors`) and its JSON parser (`parsers`). It imports no app of ours,
so any app may import it without a cycle."""
