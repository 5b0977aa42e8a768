npx -y @weft/mcp-docs --http --port 3920
