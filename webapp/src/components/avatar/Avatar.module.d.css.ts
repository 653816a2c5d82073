// Generated from Avatar.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'avatar': string;
  readonly 'decorative': string;
  readonly 'initial': string;
  readonly 'square': string;
};
export default styles;
