import { useTranslation } from 'react-i18next';
import type { City } from '../../api/content';
import styles from './city.module.css';

interface CityPickerProps {
  cities: readonly City[];
  selected: string | null;
  onSelect: (cityId: string) => void;
}

/** The cities with listings, as a row of choices (scrolls sideways when there are many). */
export function CityPicker({ cities, selected, onSelect }: CityPickerProps) {
  const { t } = useTranslation();
  return (
    <div className={styles['city-picker']} role="radiogroup" aria-label={t('city.picker')}>
      {cities.map((city) => (
        <button
          key={city.id}
          type="button"
          role="radio"
          aria-checked={selected === city.id}
          className={`${styles['city-picker__city']}${selected === city.id ? ` ${styles['city-picker__city--selected']}` : ''}`}
          data-city={city.id}
          onClick={() => {
            onSelect(city.id);
          }}
        >
          {city.name}
          <span className={styles['city-picker__count']}>{city.count}</span>
        </button>
      ))}
    </div>
  );
}
