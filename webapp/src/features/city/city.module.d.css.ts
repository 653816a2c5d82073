// Generated from city.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'badge': string;
  readonly 'badge--certified': string;
  readonly 'badge--deposit': string;
  readonly 'city-picker': string;
  readonly 'city-picker__city': string;
  readonly 'city-picker__city--selected': string;
  readonly 'city-picker__count': string;
  readonly 'listing-card': string;
  readonly 'listing-card__age': string;
  readonly 'listing-card__badges': string;
  readonly 'listing-card__body': string;
  readonly 'listing-card__city': string;
  readonly 'listing-card__contact': string;
  readonly 'listing-card__counter': string;
  readonly 'listing-card__intro': string;
  readonly 'listing-card__name': string;
  readonly 'listing-card__photo': string;
  readonly 'listing-card__photos': string;
  readonly 'listing-card__track': string;
  readonly 'listings': string;
  readonly 'listings__row': string;
};
export default styles;
