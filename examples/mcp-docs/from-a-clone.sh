git clone https://github.com/weft-ai/weft.git
cd weft
npm ci
npm run build
npm run build -w @weft/core -w @weft/mcp-docs
claude mcp add --scope user weft-docs -- node "$PWD/packages/mcp-docs/dist/cli.js"
