"""Code that runs on the child's side of the sandbox: standard library only, no automind imports.

`supervisor` is the process automind starts; it sets up the isolation and runs the script.
`namespaces` makes the filesystem read-only outside the workspace and cuts the network.
`session_runner` is the persistent interpreter behind `Sandbox.session()`.
`startup/sitecustomize.py` installs the audit-hook guard in every sandboxed Python process.
"""
