// Docusaurus' own Babel preset; only used when Docusaurus Faster is off (FASTER=false).
module.exports = {
  presets: [require.resolve('@docusaurus/core/lib/babel/preset')],
};
