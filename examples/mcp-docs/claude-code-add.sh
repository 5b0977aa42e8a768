claude mcp add weft-docs -- npx -y @weft/mcp-docs
