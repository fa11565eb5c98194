package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// OpenMeteo asks Open-Meteo (no key, no account) for the weather: its
// geocoding API turns a place name into coordinates, its forecast API
// gives the current weather and three days ahead. The zero value uses the
// public servers; tests point both URLs at an httptest server.
type OpenMeteo struct {
	Client       *http.Client
	GeocodingURL string // default https://geocoding-api.open-meteo.com/v1/search
	ForecastURL  string // default https://api.open-meteo.com/v1/forecast
}

// maxWeatherBody bounds one answer from Open-Meteo (a forecast is ~2 KB).
const maxWeatherBody = 1 << 20

// NewGetWeather is the get_weather tool. It goes to the network, so it is
// off until the person turns it on in Settings and is approved like
// web_search when untrusted text is in the model's context.
func NewGetWeather(w OpenMeteo) *Tool {
	return &Tool{
		Name:        "get_weather",
		Description: "Current weather and a 3-day forecast for a place (city name, in any language), from Open-Meteo.",
		Params: []Param{{Name: "place", Type: TypeString, Required: true,
			Description: "the place, e.g. \"Seoul\" or \"부산\""}},
		Timeout:    10 * time.Second,
		DefaultOff: true,
		Outside:    true,
		Reaches:    true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			text, err := w.Weather(ctx, args.String("place"))
			if err != nil {
				return Result{}, err
			}
			return Result{Text: text, Said: Said{Code: api.TraceWeatherTold, Args: map[string]string{"place": strings.TrimSpace(args.String("place"))}}}, nil
		},
	}
}

// Weather describes the weather at place in a few lines.
func (w OpenMeteo) Weather(ctx context.Context, place string) (string, error) {
	place = strings.TrimSpace(place)
	if place == "" || utf8.RuneCountInString(place) > 100 {
		return "", errors.New("name a place in at most 100 characters")
	}
	var geo struct {
		Results []struct {
			Name      string  `json:"name"`
			Country   string  `json:"country"`
			Admin1    string  `json:"admin1"`
			Latitude  float64 `json:"latitude"`
			Longitude float64 `json:"longitude"`
		} `json:"results"`
	}
	q := url.Values{"name": {place}, "count": {"1"}, "format": {"json"}}
	if err := w.get(ctx, orDefault(w.GeocodingURL, "https://geocoding-api.open-meteo.com/v1/search"), q, &geo); err != nil {
		return "", err
	}
	if len(geo.Results) == 0 {
		return "", fmt.Errorf("no place called %q was found: try the city's name", place)
	}
	g := geo.Results[0]
	var fc struct {
		Current struct {
			Time        string   `json:"time"`
			Temperature *float64 `json:"temperature_2m"`
			Code        *int     `json:"weather_code"`
			Wind        *float64 `json:"wind_speed_10m"`
		} `json:"current"`
		Daily struct {
			Time   []string  `json:"time"`
			Max    []float64 `json:"temperature_2m_max"`
			Min    []float64 `json:"temperature_2m_min"`
			Precip []float64 `json:"precipitation_sum"`
			Code   []int     `json:"weather_code"`
		} `json:"daily"`
	}
	q = url.Values{
		"latitude": {fmt.Sprint(g.Latitude)}, "longitude": {fmt.Sprint(g.Longitude)},
		"current":       {"temperature_2m,weather_code,wind_speed_10m"},
		"daily":         {"weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum"},
		"timezone":      {"auto"},
		"forecast_days": {"3"},
	}
	if err := w.get(ctx, orDefault(w.ForecastURL, "https://api.open-meteo.com/v1/forecast"), q, &fc); err != nil {
		return "", err
	}
	if fc.Current.Temperature == nil || fc.Current.Code == nil {
		return "", errors.New("Open-Meteo sent no current weather for that place")
	}
	var b strings.Builder
	name := strings.Join(nonEmpty(g.Name, g.Admin1, g.Country), ", ")
	fmt.Fprintf(&b, "Weather in %s (Open-Meteo, %s local time): %s, %.1f °C", name, fc.Current.Time, weatherWords(*fc.Current.Code), *fc.Current.Temperature)
	if fc.Current.Wind != nil {
		fmt.Fprintf(&b, ", wind %.0f km/h", *fc.Current.Wind)
	}
	b.WriteString(".\n")
	d := fc.Daily
	for i := range d.Time {
		if i >= len(d.Max) || i >= len(d.Min) || i >= len(d.Code) {
			break
		}
		fmt.Fprintf(&b, "%s: %s, %.0f–%.0f °C", d.Time[i], weatherWords(d.Code[i]), whole(d.Min[i]), whole(d.Max[i]))
		if i < len(d.Precip) && d.Precip[i] > 0 {
			fmt.Fprintf(&b, ", %.1f mm", d.Precip[i])
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

func (w OpenMeteo) get(ctx context.Context, base string, q url.Values, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"?"+q.Encode(), nil)
	if err != nil {
		return fmt.Errorf("weather request: %w", err)
	}
	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("Open-Meteo cannot be reached (is this computer online?): %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWeatherBody+1))
	if err != nil {
		return fmt.Errorf("reading Open-Meteo's answer: %w", err)
	}
	if len(body) > maxWeatherBody {
		return errors.New("Open-Meteo's answer is too large")
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(body, &e)
		return fmt.Errorf("Open-Meteo answered %d %s", resp.StatusCode, strings.TrimSpace(e.Reason))
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("Open-Meteo's answer is not what was expected: %w", err)
	}
	return nil
}

// whole rounds to a whole degree without a "-0".
func whole(x float64) float64 { return math.Round(x) + 0 }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// weatherWords names a WMO weather code (Open-Meteo's weather_code).
func weatherWords(code int) string {
	switch {
	case code == 0:
		return "clear sky"
	case code <= 3:
		return "partly cloudy"
	case code == 45 || code == 48:
		return "fog"
	case code >= 51 && code <= 57:
		return "drizzle"
	case code >= 61 && code <= 67, code >= 80 && code <= 82:
		return "rain"
	case code >= 71 && code <= 77, code == 85 || code == 86:
		return "snow"
	case code >= 95:
		return "thunderstorm"
	}
	return fmt.Sprintf("weather code %d", code)
}
