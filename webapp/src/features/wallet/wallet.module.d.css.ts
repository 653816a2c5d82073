// Generated from wallet.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'card-choice': string;
  readonly 'card-choice__bank': string;
  readonly 'card-choice__legend': string;
  readonly 'card-choice__number': string;
  readonly 'card-choice__option': string;
  readonly 'card-choice__text': string;
  readonly 'wallet-address': string;
  readonly 'wallet-address__row': string;
  readonly 'wallet-address__text': string;
  readonly 'wallet-balance': string;
  readonly 'wallet-balance__label': string;
  readonly 'wallet-balance__value': string;
  readonly 'wallet-section': string;
  readonly 'wallet-section__title': string;
};
export default styles;
