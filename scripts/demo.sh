#!/usr/bin/env bash
# make demo: not yet — the example web app arrives with the example-web issue.
echo "make demo: not yet (the example web app comes with the example-web issue); run 'make test'."
