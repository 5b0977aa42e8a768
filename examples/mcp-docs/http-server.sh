node /path/to/weft/packages/mcp-docs/dist/cli.js --http --port 3920
